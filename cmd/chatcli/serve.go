package main

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/chatcli/chatcli/internal/config"
	"github.com/chatcli/chatcli/internal/retention"
)

// serverFlags reads the root's --provider and --model as a stdio server
// subcommand sees them.
func serverFlags(cmd *cobra.Command) (providerName, model string) {
	providerName, _ = cmd.Flags().GetString("provider")
	model, _ = cmd.Flags().GetString("model")
	return providerName, model
}

// serverStart is what both stdio servers (mcp-server, acp) do before they
// serve: the retention pass the REPL runs at start. The returned wait
// lets that pass finish at exit (at most retentionExitWait).
func serverStart(ctx context.Context, f *factory, c config.Config) (wait func()) {
	done := retention.Background(ctx, c.Home, retention.FromConfig(c), f.lang(), f.note)
	return func() { waitAtMost(done, retentionExitWait) }
}
