"""The vault: encrypted credentials used only under a turn's mandate."""
