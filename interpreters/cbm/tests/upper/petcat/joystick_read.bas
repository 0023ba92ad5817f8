10 rem read the joystick port bits
20 j=255
30 if (j and 1)=0 then print "up"
40 if (j and 16)=0 then print "fire"
50 print "idle";j and 31
