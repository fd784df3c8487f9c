"""The managed browser: sessions, observation, sign-in and collection on websites."""
