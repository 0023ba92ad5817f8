10 n=n+1:gosub 10
