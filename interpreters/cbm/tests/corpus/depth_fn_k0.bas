1 rem the rom's stack: 0 for loops open, then fn recursion
20 dim a(5):def fna(x)=x*2:n=0:gosub 100
100 y=fna(sin(a(1+(1)))):print "*";:gosub 100
