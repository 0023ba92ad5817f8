# Stop in checkWIN after player 1's piece lands in column 4 (X = 3), row 2: the winning drop.
break checkWIN if byte[CurrentSlot] == 3 && byte[LastY] == 2
run
print GAMESTRUCT
# checkHorizontalN and checkVerticalN find nothing; checkDiagonals calls checkSemiDiagonal,
# first for (DX,DY) = (1,1) and (-1,-1), then for (1,-1) and (-1,1).
break checkSemiDiagonal
continue
info registers
finish
print A
continue
finish
print A
continue
print D
print E
finish
print A
continue
print D
print E
finish
print A
print byte[pieceCount]
# checkDiagonal adds SD1N + SD2N + 1 = 4: WINSIZE, so checkWIN returns A = 0.
delete 2
finish
finish
print A
