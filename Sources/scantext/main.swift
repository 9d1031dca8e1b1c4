print("scantext")
