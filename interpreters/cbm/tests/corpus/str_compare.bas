10 print "a"<"b";"b"<"a";"abc"="abc";"ab"<"abc";""<"a";"b">"abc";"x"<>"y"
20 a$="q":print a$="q";a$>"p";a$<="q"
