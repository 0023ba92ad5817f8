10 dim a(5):print a(-1)
