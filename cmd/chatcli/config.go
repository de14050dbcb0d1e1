package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/chatcli/chatcli/internal/i18n"

	"github.com/spf13/cobra"

	"github.com/chatcli/chatcli/internal/atomicfile"
	"github.com/chatcli/chatcli/internal/command"
	"github.com/chatcli/chatcli/internal/config"
)

// settings reads the configuration: the environment over the config file
// (config.FilePath), which is read once.
func (f *factory) settings() (config.Config, error) {
	if f.file == nil {
		file, err := config.LoadFile(config.FilePath(f.getenv))
		if err != nil {
			return config.Config{}, err
		}
		f.file = file
	}
	return config.Load(f.getenv, f.file)
}

// configPath is config.FilePath, an error when there is none.
func (f *factory) configPath() (string, error) {
	path := config.FilePath(f.getenv)
	if path == "" {
		return "", i18n.Errorf("%w: neither XDG_CONFIG_HOME nor HOME is set, so there is no config file", config.ErrConfig)
	}
	return path, nil
}

const configLong = `Show the settings chatcli reads, with their values and sources.

Every setting is an environment variable, and may also be set in the config
file, $XDG_CONFIG_HOME/chatcli/config.toml (default ~/.config/chatcli/), as a
key named after the variable in lower case with CHATCLI_ dropped:

  session_ttl = "30d"
  openai_model = "gpt-4o"
  llm_provider = "openai"

The environment overrides the file. Servers started by a desktop application
(chatcli mcp-server, chatcli acp) read the file too, so they need no env block.

chatcli config lists every setting with its value and where it came from: the
environment, the file and line, or the default; a provider or model chosen by
--provider or --model (in the REPL, /model or /switch) is shown as the next
request uses it, with the source it replaced. API and encryption keys are
shown as set or not set, never printed.

On a terminal the table is fitted to its width (COLUMNS, when set, takes
its place): long values and sources wrap under their column, and a name too
long for it is cut with "…". Piped or redirected, every row is one whole
line, as scripts read it.`

// chosenConfig is the configuration with the provider and model the
// root's --provider and --model choose, as a conversation started with
// them would use: config shows them with the flag as their source.
func chosenConfig(f *factory, cmd *cobra.Command) (config.Config, error) {
	var provider, model string
	if fl := cmd.Flags().Lookup("provider"); fl != nil {
		provider = fl.Value.String()
	}
	if fl := cmd.Flags().Lookup("model"); fl != nil {
		model = fl.Value.String()
	}
	return f.config(provider, model)
}

func newConfigCmd(f *factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "config",
		Short: "Show the settings in effect, with their values and sources",
		Long:  configLong,
		Args:  noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			c, err := chosenConfig(f, cmd)
			if err != nil {
				return err
			}
			command.WriteSettings(f.lang(), f.streams.Out, c, f.file.Path, f.tableWidth())
			return nil
		},
	}
	cmd.AddCommand(&cobra.Command{
		Use:   "session",
		Short: "Show every session setting with its value and source",
		Args:  noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			c, err := chosenConfig(f, cmd)
			if err != nil {
				return err
			}
			command.WriteSessionConfig(f.lang(), f.streams.Out, c, "", "", f.tableWidth())
			return nil
		},
	})
	cmd.AddCommand(&cobra.Command{
		Use:   "path",
		Short: "Print where the config file is read from",
		Args:  noArgs,
		RunE: func(*cobra.Command, []string) error {
			path, err := f.configPath()
			if err != nil {
				return err
			}
			fmt.Fprintln(f.streams.Out, path)
			return nil
		},
	})
	cmd.AddCommand(newConfigInitCmd(f))
	return cmd
}

// newConfigInitCmd is `chatcli config init [--force]`.
func newConfigInitCmd(f *factory) *cobra.Command {
	var force bool
	c := &cobra.Command{
		Use:   "init",
		Short: "Write a commented template of every setting to the config file",
		Long: "Write config.toml with every setting commented out, with what it means and\n" +
			"its default. An existing file is kept unless --force is given.",
		Args: noArgs,
		RunE: func(*cobra.Command, []string) error {
			path, err := f.configPath()
			if err != nil {
				return err
			}
			if _, err := os.Lstat(path); err == nil && !force {
				return i18n.Errorf("%w: %s exists; --force replaces it with the template", errFlags, path)
			} else if err != nil && !errors.Is(err, os.ErrNotExist) {
				return fmt.Errorf("%w: %s: %v", config.ErrConfig, path, err)
			}
			if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
				return fmt.Errorf("config init: %w", err)
			}
			if err := atomicfile.WriteFile(path, []byte(config.Template())); err != nil {
				return fmt.Errorf("config init: %w", err)
			}
			f.lang().Fprintf(f.streams.Out, "Wrote %s: uncomment a line to set it (the environment still overrides it).\n", path)
			return nil
		},
	}
	c.Flags().BoolVar(&force, "force", false, "replace an existing config file")
	return c
}
