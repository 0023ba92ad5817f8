; pasmo's rule: an indented word followed by an instruction or directive is a label, colon or not.
        org 100h
  start ld a,1
     loop djnz loop
  data  defb 1,2
        jp start
        ld hl,data
