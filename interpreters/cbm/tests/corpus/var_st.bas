10 print st;st+1
