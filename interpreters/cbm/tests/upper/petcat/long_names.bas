10 rem long variable names share two letters
20 score=10:screen=20
30 print score;screen
40 counter=5:count=7:print counter
