package interop

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"testing"

	"github.com/docs-mcp/docs-mcp/tools/internal/testenv"
)

// notApplicable are the conformance suite's server scenarios that do not
// apply to docs-mcp, and why. Most call the fixtures of the suite's own
// reference server (tools such as test_simple_text, prompts such as
// test_simple_prompt, resources under test://), which a product does not
// carry; the rest test capabilities docs-mcp does not declare.
var notApplicable = map[string]string{
	"logging-set-level":             "docs-mcp declares no logging capability",
	"tools-call-with-logging":       "docs-mcp declares no logging capability",
	"tools-call-simple-text":        "calls the suite's fixture tool test_simple_text",
	"tools-call-image":              "calls the suite's fixture tool test_image_content",
	"tools-call-audio":              "calls the suite's fixture tool test_audio_content",
	"tools-call-embedded-resource":  "calls the suite's fixture tool test_embedded_resource",
	"tools-call-mixed-content":      "calls the suite's fixture tool test_multiple_content_types",
	"tools-call-error":              "calls the suite's fixture tool test_error_handling",
	"tools-call-with-progress":      "calls the suite's fixture tool test_tool_with_progress",
	"tools-call-sampling":           "calls the suite's fixture tool test_sampling (and docs-mcp asks no sampling)",
	"tools-call-elicitation":        "calls the suite's fixture tool test_elicitation (and docs-mcp asks no elicitation)",
	"elicitation-sep1034-defaults":  "calls the suite's fixture tool test_elicitation_sep1034_defaults",
	"elicitation-sep1330-enums":     "calls the suite's fixture tool test_elicitation_sep1330_enums",
	"resources-read-text":           "reads the suite's fixture resource test://static-text",
	"resources-read-binary":         "reads the suite's fixture resource test://static-binary",
	"resources-templates-read":      "reads the suite's fixture template test://template/{id}/data",
	"resources-subscribe":           "subscribes to the suite's fixture resource test://watched-resource",
	"resources-unsubscribe":         "unsubscribes from the suite's fixture resource test://watched-resource",
	"prompts-get-simple":            "gets the suite's fixture prompt test_simple_prompt",
	"prompts-get-with-args":         "gets the suite's fixture prompt test_prompt_with_arguments",
	"prompts-get-embedded-resource": "gets the suite's fixture prompt test_prompt_with_embedded_resource",
	"prompts-get-with-image":        "gets the suite's fixture prompt test_prompt_with_image",
}

// TestConformance runs the official conformance suite
// (@modelcontextprotocol/conformance, pinned in
// mcp-server/testdata/conformance with the Node.js 22 it needs) against
// docs-mcp over Streamable HTTP: every server scenario of its active suite
// that applies must pass, and every scenario is either applicable or listed
// in notApplicable with the reason.
func TestConformance(t *testing.T) {
	dir := filepath.Join(repoRoot, "mcp-server", "testdata", "conformance")
	node := filepath.Join(dir, "node_modules", ".bin", "node")
	suite := filepath.Join(dir, "node_modules", ".bin", "conformance")
	for _, p := range []string{node, suite} {
		if _, err := os.Stat(p); err != nil {
			testenv.Missing(t, "the conformance suite is not installed: run npm ci --prefix mcp-server/testdata/conformance")
		}
	}
	base := httpServer(t, dataRoot(t))
	results := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 3*patience)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, suite, "server", "--url", base+"/mcp", "-o", results)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	runErr := cmd.Run() // it exits 1 when any scenario fails, the inapplicable ones included
	if ctx.Err() != nil {
		t.Fatalf("the conformance suite did not finish: %v\n%s", runErr, out.Bytes())
	}

	got := scenarioResults(t, results)
	if len(got) == 0 {
		t.Fatalf("the conformance suite reported no scenario (%v):\n%s", runErr, out.Bytes())
	}
	var passed []string
	for scenario, failures := range got {
		_, na := notApplicable[scenario]
		switch {
		case na && len(failures) == 0:
			t.Errorf("conformance scenario %s is listed as not applicable (%s), but it passes", scenario, notApplicable[scenario])
		case na:
		case len(failures) > 0:
			t.Errorf("conformance scenario %s failed: %v", scenario, failures)
		default:
			passed = append(passed, scenario)
		}
	}
	for scenario := range notApplicable {
		if _, ok := got[scenario]; !ok {
			t.Errorf("scenario %s is listed as not applicable, but the suite has no such scenario any more", scenario)
		}
	}
	slices.Sort(passed)
	t.Logf("applicable scenarios passed: %v; not applicable: %d", passed, len(notApplicable))
}

// resultDir is a scenario's results folder: server-<scenario>-<timestamp>.
var resultDir = regexp.MustCompile(`^server-(.+)-\d{4}-\d\d-\d\dT[\d-]+Z$`)

// scenarioResults reads the suite's checks.json files: for each scenario,
// the checks that did not succeed (status other than SUCCESS or INFO).
func scenarioResults(t *testing.T, dir string) map[string][]string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string][]string{}
	for _, e := range entries {
		m := resultDir.FindStringSubmatch(e.Name())
		if m == nil {
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, e.Name(), "checks.json"))
		if err != nil {
			t.Fatal(err)
		}
		var checks []struct {
			ID, Status, ErrorMessage string
		}
		if err := json.Unmarshal(data, &checks); err != nil {
			t.Fatalf("%s: %v", e.Name(), err)
		}
		failures := []string{}
		for _, c := range checks {
			if c.Status != "SUCCESS" && c.Status != "INFO" {
				failures = append(failures, c.ID+": "+c.Status+" "+c.ErrorMessage)
			}
		}
		got[m[1]] = failures
	}
	return got
}
