10 rem how numbers print
20 for i=1 to 8:read x:print x:next
30 data 1e10,123456789,.001,1e-10,-0.5,3.14159265,1/3,100000000
