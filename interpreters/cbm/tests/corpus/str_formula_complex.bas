10 a$=left$(left$(left$(left$("abcdef",5),4),3),2):print a$
