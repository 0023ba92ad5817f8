10 dim m%(2,3):v=peek(47)+256*peek(48)
20 for i=0 to 10:print peek(v+i);:next:print
30 m%(1,0)=1:m%(0,1)=2:for i=11 to 20:print peek(v+i);:next
