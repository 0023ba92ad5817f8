10 dim a$(200):for j=1 to 5:for i=0 to 200:a$(i)=a$(i)+chr$(65+j):next:next
20 print a$(0);a$(200);fre(0)
30 for i=0 to 200 step 2:a$(i)="":next:print fre(0)
