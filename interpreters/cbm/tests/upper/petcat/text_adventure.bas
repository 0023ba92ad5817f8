10 rem a tiny adventure, moves from data
20 dim r$(4),n(4),s(4)
30 for i=1 to 4:read r$(i),n(i),s(i):next
40 r=1
50 read m$:if m$="x" then print "the end":end
60 if m$="n" and n(r) then r=n(r)
70 if m$="s" and s(r) then r=s(r)
80 print "you are in the ";r$(r)
90 goto 50
100 data hall,2,0,kitchen,3,1,cellar,4,2,vault,0,3
110 data n,n,s,n,n,x
