10 for=1
