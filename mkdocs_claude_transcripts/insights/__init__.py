"""What a reader wants to know about a session, read from the content model: tool
categories and targets, a normalized event stream, statistics, and the JSON export."""
