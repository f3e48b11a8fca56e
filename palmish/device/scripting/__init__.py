"""What drives the device without a person: event scripts and Gremlins."""
