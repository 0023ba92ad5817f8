10 def fna(x)=x*2:v=peek(45)+256*peek(46)
20 print peek(v);peek(v+1);peek(v+7);peek(v+8)
