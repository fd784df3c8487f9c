"""Users, roles and paired devices."""
