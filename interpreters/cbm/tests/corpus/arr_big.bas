10 dim b(5000):print fre(0)
20 dim c%(10000):print fre(0)
