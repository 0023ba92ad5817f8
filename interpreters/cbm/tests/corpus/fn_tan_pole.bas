10 print tan(3.14159265/2)
