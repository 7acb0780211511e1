"""The Barrage board reader: what is specific to Barrage's board and pieces."""
