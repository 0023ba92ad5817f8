10 a$="x":for i=1 to 9:a$=a$+a$:next
