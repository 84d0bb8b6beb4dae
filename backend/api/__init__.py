"""What every backend app's API shares: permissions (roles), fields, request validation."""
