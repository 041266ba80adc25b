"""Agent frameworks over donto: each adapter is a shell over donto's client alone, behind an extra of its own."""
