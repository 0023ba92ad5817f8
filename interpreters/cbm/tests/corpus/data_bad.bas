10 read a
20 data x
