10 dim a(5):dim a(5)
