package config

import (
	"errors"
	"testing"
)

func TestAgentSettings(t *testing.T) {
	c, err := FromEnv(env(map[string]string{"CHATCLI_HOME": "/h"}))
	if err != nil || c.Agent.AutoExec || c.Agent.MaxSteps != DefaultAgentMaxSteps {
		t.Fatalf("defaults: %+v %v", c.Agent, err)
	}
	c, err = FromEnv(env(map[string]string{"CHATCLI_HOME": "/h", "CHATCLI_AGENT_AUTO_EXEC": "true", "CHATCLI_AGENT_MAX_STEPS": " 7 "}))
	if err != nil || !c.Agent.AutoExec || c.Agent.MaxSteps != 7 {
		t.Fatalf("set: %+v %v", c.Agent, err)
	}
	for _, bad := range []map[string]string{
		{"CHATCLI_AGENT_AUTO_EXEC": "maybe"}, {"CHATCLI_AGENT_MAX_STEPS": "0"},
		{"CHATCLI_AGENT_MAX_STEPS": "-3"}, {"CHATCLI_AGENT_MAX_STEPS": "ten"},
	} {
		bad["CHATCLI_HOME"] = "/h"
		if _, err := FromEnv(env(bad)); !errors.Is(err, ErrConfig) {
			t.Errorf("%v accepted: %v", bad, err)
		}
	}
}
