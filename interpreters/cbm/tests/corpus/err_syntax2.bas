10 print )
