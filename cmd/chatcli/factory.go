package main

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"

	"github.com/chatcli/chatcli/internal/config"
	"github.com/chatcli/chatcli/internal/conversation"
	"github.com/chatcli/chatcli/internal/i18n"
	"github.com/chatcli/chatcli/internal/journal"
	"github.com/chatcli/chatcli/internal/provider"
	"github.com/chatcli/chatcli/internal/provider/anthropic"
	"github.com/chatcli/chatcli/internal/provider/offline"
	"github.com/chatcli/chatcli/internal/provider/openai"
	"github.com/chatcli/chatcli/internal/render"
	"github.com/chatcli/chatcli/internal/repl"
	"github.com/chatcli/chatcli/internal/retention"
	"github.com/chatcli/chatcli/internal/session"
	"github.com/chatcli/chatcli/internal/window"
)

// factory builds what commands need from the environment, lazily, so that
// --help and flag errors never touch the store or the network.
type factory struct {
	streams *ioStreams
	getenv  func(string) string
	// file is the config file, read by settings on first use.
	file *config.File
	// markers hold "session open" marks of the engines built here; close
	// releases them when the command ends.
	markers []*retention.Marker
	// stores are the stores opened here, whose lock waits close reports
	// when CHATCLI_DEBUG_LOCKSTATS is set.
	stores []*session.Store
	// permit asks before tool writes and commands (agent.go); the REPL
	// gives it the line editor. newToolbox, when set, replaces the
	// package's newToolbox (tests).
	permit     *repl.Permit
	newToolbox func(config.Config, *repl.Permit) (conversation.Toolbox, error)
	// workdir is the workspace of the tools and file checkpoints; "" means
	// the working directory (tests set it).
	workdir string
	// closers release what the engines' toolboxes hold, at close.
	closers []func() error
	// engines are the engines built here: close writes the file of each
	// one's bound session (its turns went to the journal).
	engines []*conversation.Engine
	// machineNotices is set for -p --json and --stream-json: the engines'
	// notices go into machine-readable output, so their numbers are not
	// grouped by the language (i18n.Printer.Plain).
	machineNotices bool
	// printer is the language of the messages, once lang has chosen it
	// (under langMu).
	printer *i18n.Printer
	langMu  sync.Mutex
}

// close releases what the command's engines held.
func (f *factory) close() {
	for _, e := range f.engines {
		if _, err := e.Close(false); err != nil {
			f.note(f.lang().Error(err, nil))
		}
	}
	f.engines = nil
	for _, m := range f.markers {
		m.Close()
	}
	for _, c := range f.closers {
		c()
	}
	f.closers = nil
	if f.getenv("CHATCLI_DEBUG_LOCKSTATS") != "" {
		fmt.Fprintln(f.streams.Err, lockStatsLine(f.stores))
	}
}

// lockStatsLine sums the session-lock waits of stores and the journal-lock
// waits of this process in one line:
// "chatcli: lockstats: locks=N contended=N wait_total_us=N wait_avg_us=N
// wait_max_us=N" (microseconds), for performance checks.
func lockStatsLine(stores []*session.Store) string {
	var sum session.LockStats
	for _, st := range stores {
		sum.Add(st.LockStats())
	}
	sum.Add(journal.Locks()) // a turn waits on its journal's lock too
	var avg int64
	if sum.Acquired > 0 {
		avg = sum.TotalWait.Microseconds() / sum.Acquired
	}
	return fmt.Sprintf("chatcli: lockstats: locks=%d contended=%d wait_total_us=%d wait_avg_us=%d wait_max_us=%d",
		sum.Acquired, sum.Contended, sum.TotalWait.Microseconds(), avg, sum.MaxWait.Microseconds())
}

// config reads the environment and applies --provider / --model.
func (f *factory) config(providerFlag, modelFlag string) (config.Config, error) {
	c, err := f.settings()
	if err != nil {
		return c, err
	}
	if providerFlag != "" {
		err = c.Choose(providerFlag, "", "--provider")
	}
	if err == nil && modelFlag != "" {
		err = c.Choose(c.Provider, modelFlag, "--model")
	}
	return c, err
}

// store opens the session store with the configured encryption key (a
// malformed CHATCLI_ENCRYPTION_KEY was refused by config.FromEnv).
func (f *factory) store(c config.Config) (*session.Store, error) {
	st, err := session.Open(c.SessionsDir())
	if err != nil {
		return nil, err
	}
	st.SetKey(c.EncryptionKey)
	st.SetChatCLIKey(c.ChatCLIKey) // files ChatCLI encrypted
	// Files are read with their journal's tail even when this process
	// writes no journal (CHATCLI_SESSION_TRANSCRIPT=false).
	st.SetJournalDir(filepath.Join(c.Home, "transcripts"))
	f.stores = append(f.stores, st)
	return st, nil
}

// provider builds the configured provider. A hosted provider without its
// API key is refused here, before any request.
func (f *factory) provider(c config.Config) (provider.Provider, error) {
	if c.ProviderErr != nil {
		return nil, c.ProviderErr
	}
	var p provider.Provider
	if err := c.ProviderErr; err != nil {
		return nil, err
	}
	var err error
	if ep, ok := c.Endpoints[c.Provider]; ok {
		if len(ep.KeyVars) > 0 && ep.APIKey == "" {
			return nil, i18n.Errorf("%w: %s is not set (LLM_PROVIDER=%s)", config.ErrConfig, strings.Join(ep.KeyVars, " or "), strings.ToUpper(ep.Name))
		}
		p, err = openai.New(openai.Config{APIKey: ep.APIKey, Model: c.Model, BaseURL: ep.URL, Timeout: c.RequestTimeout, Preset: ep.Name})
		if err != nil {
			return nil, fmt.Errorf("%w: %s: %v", config.ErrConfig, ep.BaseURLVar, err)
		}
		return p, nil
	}
	switch c.Provider {
	case config.ProviderOpenAI:
		if c.OpenAIKey == "" && c.OpenAIBaseURL == "" {
			return nil, i18n.Errorf("%w: OPENAI_API_KEY is not set (for a local server such as Ollama, set OPENAI_BASE_URL instead)", config.ErrConfig)
		}
		p, err = openai.New(openai.Config{APIKey: c.OpenAIKey, Model: c.Model, BaseURL: c.OpenAIBaseURL, Timeout: c.RequestTimeout})
	case config.ProviderAnthropic:
		if c.AnthropicKey == "" && c.AnthropicBaseURL == "" {
			return nil, i18n.Errorf("%w: ANTHROPIC_API_KEY is not set", config.ErrConfig)
		}
		p, err = anthropic.New(anthropic.Config{APIKey: c.AnthropicKey, Model: c.Model, BaseURL: c.AnthropicBaseURL, Timeout: c.RequestTimeout})
	case config.ProviderBedrock:
		p, err = bedrockProvider(c)
	case config.ProviderOffline:
		p = offline.New(c.Model)
	default:
		err = i18n.Errorf("unknown provider %q", c.Provider)
	}
	if err != nil {
		return nil, fmt.Errorf("%w: %v", config.ErrConfig, err)
	}
	if c.MaxTokens > 0 {
		p = cappedProvider{p, c.MaxTokens}
	}
	return p, nil
}

// bedrockProvider builds the Bedrock client; its error names what is
// missing (credentials, or an endpoint variable's bad value).
func bedrockProvider(c config.Config) (provider.Provider, error) {
	b := c.Bedrock
	if m := b.Missing(); m != "" {
		return nil, errors.New(m) // provider adds config.ErrConfig
	}
	p, err := anthropic.NewBedrock(anthropic.BedrockConfig{Model: c.Model, Region: b.Region, AccessKeyID: b.AccessKeyID,
		SecretAccessKey: b.SecretAccessKey, SessionToken: b.SessionToken, BearerToken: b.BearerToken, Endpoint: b.Endpoint, Timeout: c.RequestTimeout})
	if err != nil {
		if b.EndpointVar != "" {
			err = fmt.Errorf("%s: %w", b.EndpointVar, err)
		}
		return nil, err
	}
	return p, nil
}

// switcher builds, from c, the provider /model and /switch ask for.
func (f *factory) switcher(c config.Config) func(name, model string) (provider.Provider, error) {
	return func(name, model string) (provider.Provider, error) {
		if err := c.Override(name, model); err != nil {
			return nil, err
		}
		return f.provider(c)
	}
}

// engine builds a conversation engine whose notices go to stderr, with
// its tools in the working directory.
func (f *factory) engine(c config.Config) (*conversation.Engine, error) { return f.engineIn(c, "") }

// storeEngine is engine for the verbs that send no request (session fork,
// session rewind): its provider is offline, so they work whatever provider
// the configuration names, or fails to name.
func (f *factory) storeEngine(c config.Config) (*conversation.Engine, error) {
	c.Provider, c.ProviderErr = config.ProviderOffline, nil
	return f.engine(c)
}

// engineIn is engine with the tools, the file checkpoints and the folder
// recorded for the sessions it binds in dir ("" for the working
// directory): an ACP thread's workspace.
func (f *factory) engineIn(c config.Config, dir string) (*conversation.Engine, error) {
	st, err := f.store(c)
	if err != nil {
		return nil, err
	}
	p, err := f.provider(c)
	if err != nil {
		return nil, err
	}
	tb, code, err := f.toolbox(c, dir)
	if err != nil {
		return nil, err
	}
	notify := func(s string) { f.note(render.Visible(s)) }
	// The bound session is marked open, so no other process's retention
	// pass removes it; the mark goes with the process.
	marker := retention.NewMarker(c.Home)
	f.markers = append(f.markers, marker)
	var e *conversation.Engine
	// The supplier's and the references' notes follow the engine's
	// notifier, so -p --json and MCP report them as notices.
	relay := func(s string) {
		if e != nil {
			e.Notice(s)
			return
		}
		notify(s)
	}
	sup := f.supplier(c, dir, relay)
	e = conversation.New(conversation.Options{Store: st, Provider: p, JournalDir: c.TranscriptsDir(), ContextWindow: c.ContextWindowFor(c.Model),
		Windows: window.Open(filepath.Join(c.Home, session.CacheDirName)),
		Toolbox: tb, CodeCheckpoints: code, MaxSteps: c.Agent.MaxSteps, OnTool: f.toolActivity, Supplement: sup.Messages,
		NoWriteThrough: !c.WriteThrough,
		Expand:         f.expander(c, dir, st, relay, func() *conversation.Engine { return e }),
		Notify:         notify, Lang: f.noticeLang(), OnBind: func(name string) {
			if err := marker.Set(name); err != nil {
				notify(fmt.Sprintf("could not mark session %q open: %v", name, err))
			}
			f.noteUsed(c.Home, name, dir)
			sup.Check(e.Attachments()) // a loaded session's missing contexts, said now
		},
		OnSaved:  func(name string) { f.noteUsed(c.Home, name, dir) },
		OnRename: func(old, new string) { f.renameUsed(c.Home, old, new) }})
	f.engines = append(f.engines, e)
	return e, nil
}

// banner names the provider and model; the offline provider says plainly
// that its replies do not come from a model.
// It is in lang, in lines of at most 80 columns.
func banner(lang *i18n.Printer, p provider.Provider) string {
	if p.Name() == config.ProviderOffline {
		return lang.Sprintf("chatcli %s · provider offline · /help for commands\nReplies are generated locally, NOT by a language model.\nSet OPENAI_API_KEY, ANTHROPIC_API_KEY or OPENAI_BASE_URL to use one.", version)
	}
	return lang.Sprintf("chatcli %s · provider %s · model %s · /help for commands", version, p.Name(), p.Model())
}

// storeFromEnv opens the store for the headless verbs.
func (f *factory) storeFromEnv() (*session.Store, error) {
	_, st, err := f.configStore()
	return st, err
}

// configStore reads the configuration and opens its store.
func (f *factory) configStore() (config.Config, *session.Store, error) {
	c, err := f.settings()
	if err != nil {
		return c, nil, err
	}
	st, err := f.store(c)
	return c, st, err
}
