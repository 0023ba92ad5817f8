10 next
