1 rem the rom's stack: 7 for loops open, then fn recursion
2 for v1=1 to 1
3 for v2=1 to 1
4 for v3=1 to 1
5 for v4=1 to 1
6 for v5=1 to 1
7 for v6=1 to 1
8 for v7=1 to 1
20 dim a(5):def fna(x)=x*2:n=0:gosub 100
100 y=fna(sin(a(1+(1)))):print "*";:gosub 100
