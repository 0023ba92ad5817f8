10 z(10)=5:print z(10);z(0)
