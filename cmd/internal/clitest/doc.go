// Package clitest holds the test that runs all seven programs as a user
// meets them: each one's --help, --version and a bad flag, and a
// subcommand's, with the exit statuses of the shared convention
// (internal/cli): 0 for help and version, 2 for a usage error, 1 for a
// failure at run time.
package clitest
