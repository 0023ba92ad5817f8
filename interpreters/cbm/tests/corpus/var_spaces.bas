10 a b=5:print ab;a b
20 fo r=1 to 2:print r:next
