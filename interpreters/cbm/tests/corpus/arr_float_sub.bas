10 dim a(5):a(2.7)=3:print a(2);a(2.9)
