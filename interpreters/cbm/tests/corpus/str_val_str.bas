10 for i=1 to 10:a$=str$(i/3):print val(a$)=i/3;:next
