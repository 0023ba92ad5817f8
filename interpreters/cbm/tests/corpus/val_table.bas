10 for i=0 to 20:a$=str$(i*7.25):print val(a$);:next
