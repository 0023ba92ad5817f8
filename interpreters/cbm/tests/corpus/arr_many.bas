10 for i=1 to 20:dim a(i):next
