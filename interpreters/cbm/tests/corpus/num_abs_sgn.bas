10 for x=-2 to 2 step .5:print abs(x);sgn(x);:next
20 print sgn(-1e-30);sgn(1e30);abs(-0)
