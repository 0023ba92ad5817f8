10 rem illegal quantity
20 print chr$(65)
30 print chr$(300)
