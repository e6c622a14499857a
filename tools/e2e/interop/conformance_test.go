package interop

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/docs-mcp/docs-mcp/tools/internal/testenv"
)

// label says why a scenario, or one check of a scenario, does not apply to
// docs-mcp, and how to tell: every check that does not succeed must give
// one of evidence as its reason (a fixture tool, prompt or resource it
// names, or a capability the server does not declare). A labelled scenario
// that passes, or fails for any other reason, fails the test: the label
// would be false.
type label struct {
	reason   string
	evidence []string
}

// fixture labels a scenario that uses the suite's own reference server's
// fixtures (tools such as test_simple_text, prompts such as
// test_simple_prompt, resources under test://), which a product does not
// carry.
func fixture(kind string, names ...string) label {
	return label{fmt.Sprintf("uses the suite's fixture %s %s", kind, strings.Join(names, ", ")), names}
}

var (
	noLogging = label{"docs-mcp declares no logging capability", []string{"logging not supported"}}
	noInput   = label{"docs-mcp's tools never ask the client for input (SEP-2322): it calls the suite's fixture tools test_input_required_result_*",
		[]string{"test_input_required_result_", "InputRequiredResult"}}
	noTasks = label{"docs-mcp declares no tasks extension (SEP-2663): it calls the suite's fixture tools (slow_compute, greet, ...) and the tasks/* methods",
		[]string{"'slow_compute' not found", "'greet' not found", "'failing_job' not found", "'protocol_error_job' not found",
			"'test_tool_with_task' not found", "'confirm_delete' not found", "'multi_input' not found", "for failing_job returned",
			"no task was created", "routing-task fixture", `capabilities.extensions["io.modelcontextprotocol/tasks"] MUST be present`,
			"tasks/get MUST return -32021; got -32601", "expected -32602; got -32601", "SEP-2663 delivers notifications/tasks"}}
)

// notApplicable are the conformance suites' server scenarios that do not
// apply to docs-mcp, and why (both versions: a name means one scenario in
// each).
var notApplicable = map[string]label{
	"logging-set-level":                             noLogging,
	"tools-call-with-logging":                       noLogging,
	"tools-call-simple-text":                        fixture("tool", "test_simple_text"),
	"tools-call-image":                              fixture("tool", "test_image_content"),
	"tools-call-audio":                              fixture("tool", "test_audio_content"),
	"tools-call-embedded-resource":                  fixture("tool", "test_embedded_resource"),
	"tools-call-mixed-content":                      fixture("tool", "test_multiple_content_types"),
	"tools-call-error":                              fixture("tool", "test_error_handling"),
	"tools-call-with-progress":                      fixture("tool", "test_tool_with_progress"),
	"tools-call-sampling":                           fixture("tool", "test_sampling"),
	"tools-call-elicitation":                        fixture("tool", "test_elicitation"),
	"elicitation-sep1034-defaults":                  fixture("tool", "test_elicitation_sep1034_defaults"),
	"elicitation-sep1330-enums":                     fixture("tool", "test_elicitation_sep1330_enums"),
	"json-schema-2020-12":                           fixture("tool", "json_schema_2020_12_tool"),
	"resources-read-text":                           fixture("resource", "test://static-text"),
	"resources-read-binary":                         fixture("resource", "test://static-binary"),
	"resources-templates-read":                      fixture("template", "test://template/"),
	"resources-subscribe":                           fixture("resource", "test://watched-resource"),
	"resources-unsubscribe":                         fixture("resource", "test://watched-resource"),
	"prompts-get-simple":                            fixture("prompt", "test_simple_prompt"),
	"prompts-get-with-args":                         fixture("prompt", "test_prompt_with_arguments"),
	"prompts-get-embedded-resource":                 fixture("prompt", "test_prompt_with_embedded_resource"),
	"prompts-get-with-image":                        fixture("prompt", "test_prompt_with_image"),
	"http-custom-header-server-validation":          {"docs-mcp's tools declare no x-mcp-header parameters (SEP-2243)", []string{"no tool with x-mcp-header annotations"}},
	"input-required-result-basic-elicitation":       noInput,
	"input-required-result-basic-list-roots":        noInput,
	"input-required-result-basic-sampling":          noInput,
	"input-required-result-capability-check":        noInput,
	"input-required-result-ignore-extra-params":     noInput,
	"input-required-result-missing-input-response":  noInput,
	"input-required-result-multi-round":             noInput,
	"input-required-result-multiple-input-requests": noInput,
	"input-required-result-non-tool-request":        noInput,
	"input-required-result-request-state":           noInput,
	"input-required-result-result-type":             noInput,
	"input-required-result-tampered-state":          noInput,
	"tasks-capability-negotiation":                  noTasks,
	"tasks-dispatch-and-envelope":                   noTasks,
	"tasks-lifecycle":                               noTasks,
	"tasks-mrtr-composition":                        noTasks,
	"tasks-mrtr-input":                              noTasks,
	"tasks-request-headers":                         noTasks,
	"tasks-request-state-removal":                   noTasks,
	"tasks-required-task-error":                     noTasks,
	"tasks-status-notifications":                    noTasks,
	"tasks-wire-fields":                             noTasks,
}

// notApplicableChecks are checks, by id, of applicable scenarios that do
// not apply to docs-mcp: server-stateless (2026-07-28) exercises a few
// requirements through the suite's diagnostic tools, and two SHOULDs
// through list_changed capabilities docs-mcp does not declare (its tools
// and prompts are fixed).
var notApplicableChecks = map[string]label{
	"sep-2575-server-rejects-undeclared-capability":              fixture("tool", "test_missing_capability"),
	"sep-2575-missing-capability-http-400":                       fixture("tool", "test_missing_capability"),
	"sep-2575-http-server-no-independent-requests-on-stream":     fixture("tool", "test_streaming_elicitation"),
	"sep-2575-server-no-log-without-loglevel":                    fixture("tool", "test_logging_tool"),
	"sep-2575-server-sends-prompts-list-changed-on-subscription": {"docs-mcp declares no prompts.listChanged: its prompt is fixed", []string{"did not declare prompts.listChanged"}},
	"sep-2575-server-sends-tools-list-changed-on-subscription":   {"docs-mcp declares no tools.listChanged: its tools are fixed", []string{"did not declare tools.listChanged"}},
}

// required are scenarios that must be among those run and passed: the
// Skills extension's (SEP-2640), which skip, and so pass unseen, when the
// extension is not declared.
var required = []string{"sep-2640-skills-directory", "sep-2640-skills-enumeration", "sep-2640-skills-manifest"}

// conformanceSuites are the pinned versions of the suite
// (mcp-server/testdata/conformance): 0.1.16, and the alpha that has the
// 2026-07-28 scenarios (server-stateless, caching, http-header-validation,
// sep-2164-resource-not-found, ...), installed under an npm alias.
var conformanceSuites = []struct{ version, script string }{
	{"0.1.16", "node_modules/@modelcontextprotocol/conformance/dist/index.js"},
	{"0.2.0-alpha.12", "node_modules/conformance-alpha/dist/index.js"},
}

// TestConformance runs the official conformance suite, both pinned
// versions with the Node.js 22 they need, against docs-mcp over Streamable
// HTTP, every server scenario of each (--suite all: the active, pending and
// draft ones): every scenario must pass, or be listed in notApplicable and
// fail for the reason given there (and likewise for the checks in
// notApplicableChecks).
func TestConformance(t *testing.T) {
	dir := filepath.Join(repoRoot, "mcp-server", "testdata", "conformance")
	node := filepath.Join(dir, "node_modules", ".bin", "node")
	if _, err := os.Stat(node); err != nil {
		testenv.Missing(t, "the conformance suite is not installed: run npm ci --prefix mcp-server/testdata/conformance")
	}
	seen := map[string]bool{}                  // the scenarios and checks of every suite run
	results := map[string]map[string][]check{} // by suite version, by scenario
	passed := map[string]bool{}                // the scenarios passed
	for _, suite := range conformanceSuites {
		t.Run(suite.version, func(t *testing.T) {
			script := filepath.Join(dir, filepath.FromSlash(suite.script))
			if _, err := os.Stat(script); err != nil {
				testenv.Missing(t, "conformance %s is not installed: run npm ci --prefix mcp-server/testdata/conformance", suite.version)
			}
			got, ok := conformance(t, node, script)
			for scenario, checks := range got {
				seen[scenario] = true
				for _, c := range checks {
					seen[c.ID] = true
				}
			}
			results[suite.version] = got
			for _, scenario := range ok {
				passed[scenario] = true
			}
		})
	}
	if len(results) < len(conformanceSuites) {
		return
	}
	checkCompatibilityDoc(t, results)
	for _, scenario := range required {
		if !passed[scenario] {
			t.Errorf("scenario %s is required to run and pass (not skip): no suite passed it", scenario)
		}
	}
	for _, labels := range []map[string]label{notApplicable, notApplicableChecks} {
		for name := range labels {
			if !seen[name] {
				t.Errorf("%s is listed as not applicable, but no suite has it any more", name)
			}
		}
	}
}

// conformance runs one version of the suite, checks its results, and
// returns them, and the applicable scenarios passed, every check run (a
// check skipped fails the scenario: see check.failed).
func conformance(t *testing.T, node, script string) (map[string][]check, []string) {
	base := httpServer(t, dataRoot(t))
	results := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 5*patience)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, script, "server", "--url", base+"/mcp", "--suite", "all", "-o", results)
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
	var passed, na []string
	for scenario, checks := range got {
		if l, ok := notApplicable[scenario]; ok {
			na = append(na, scenario)
			if err := l.check(checks); err != nil {
				t.Errorf("scenario %s is listed as not applicable (%s), but %v", scenario, l.reason, err)
			}
			continue
		}
		ok := true
		for _, c := range checks {
			if l, labelled := notApplicableChecks[c.ID]; labelled {
				if err := l.check([]check{c}); err != nil {
					t.Errorf("scenario %s: check %s is listed as not applicable (%s), but %v", scenario, c.ID, l.reason, err)
				}
				continue
			}
			if c.failed() {
				ok = false
				t.Errorf("conformance scenario %s failed: %s: %s %s", scenario, c.ID, c.Status, c.reason())
			}
		}
		if ok {
			passed = append(passed, scenario)
		}
	}
	slices.Sort(passed)
	slices.Sort(na)
	t.Logf("%d scenarios; applicable and passed (%d): %v; not applicable, for the reason labelled (%d): %v", len(got), len(passed), passed, len(na), na)
	return got, passed
}

// check is one check of a scenario, as the suite's checks.json has it.
type check struct {
	ID, Status, ErrorMessage string
	Details                  struct{ Note string }
}

// failed reports whether the check did not succeed (status other than
// SUCCESS or INFO: FAILURE, WARNING, SKIPPED).
func (c check) failed() bool { return c.Status != "SUCCESS" && c.Status != "INFO" }

// reason is what the check says about its outcome.
func (c check) reason() string { return strings.TrimSpace(c.ErrorMessage + " " + c.Details.Note) }

// check returns an error unless checks fail, each for a reason that names
// one of l's evidence.
func (l label) check(checks []check) error {
	failed := 0
	for _, c := range checks {
		if !c.failed() {
			continue
		}
		failed++
		if !slices.ContainsFunc(l.evidence, func(e string) bool { return strings.Contains(c.reason(), e) }) {
			return fmt.Errorf("check %s fails for another reason: %s %q", c.ID, c.Status, c.reason())
		}
	}
	if failed == 0 {
		return errors.New("it passes")
	}
	return nil
}

// resultDir is a scenario's results folder: server-<scenario>-<timestamp>.
var resultDir = regexp.MustCompile(`^server-(.+)-\d{4}-\d\d-\d\dT[\d-]+Z$`)

// scenarioResults reads the suite's checks.json files: for each scenario,
// its checks.
func scenarioResults(t *testing.T, dir string) map[string][]check {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string][]check{}
	for _, e := range entries {
		m := resultDir.FindStringSubmatch(e.Name())
		if m == nil {
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, e.Name(), "checks.json"))
		if err != nil {
			t.Fatal(err)
		}
		var checks []check
		if err := json.Unmarshal(data, &checks); err != nil {
			t.Fatalf("%s: %v", e.Name(), err)
		}
		got[m[1]] = checks
	}
	return got
}

// compatibilityDoc is the page whose table gives the suites' figures.
const compatibilityDoc = "docs/server/compatibility.md"

// figures matches a cell of that table: "pass 3/3", "pass 24/30: six
// checks not applicable", "pass", "not applicable...", "(none)".
var figures = regexp.MustCompile(`^(?:pass (\d+)/(\d+)(?:\b.*)?|pass|not applicable\b.*|\(none\))$`)

// checkCompatibilityDoc holds the conformance table of the compatibility
// page to the results of the suites just run (by version, by scenario):
// in a row naming one scenario, "pass N/M" says that N of its M checks
// passed (the others labelled not applicable), "(none)" that the suite
// has no such scenario, "not applicable" that it is labelled so. A row
// naming several scenarios must give no figures.
func checkCompatibilityDoc(t *testing.T, results map[string]map[string][]check) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(repoRoot, filepath.FromSlash(compatibilityDoc)))
	if err != nil {
		t.Fatal(err)
	}
	_, table, ok := strings.Cut(string(b), "\n| scenario |")
	if !ok {
		t.Fatalf("%s has no table with a \"scenario\" column", compatibilityDoc)
	}
	header, rows, _ := strings.Cut(table, "\n")
	var versions []string
	for c := range strings.SplitSeq(strings.Trim(header, " |"), "|") {
		versions = append(versions, strings.TrimSpace(c))
	}
	for _, v := range versions {
		if results[v] == nil {
			t.Fatalf("%s's conformance table has a column %q, which is no pinned suite", compatibilityDoc, v)
		}
	}
	backticked := regexp.MustCompile("`([^`]+)`")
	checked := 0
	for row := range strings.Lines(rows) {
		if !strings.HasPrefix(row, "|") {
			break // the table's end
		}
		cells := strings.Split(strings.Trim(strings.TrimSpace(row), "|"), "|")
		if strings.HasPrefix(strings.TrimSpace(cells[0]), "---") {
			continue
		}
		if len(cells) != len(versions)+1 {
			t.Errorf("%s: row %q has %d cells, want %d", compatibilityDoc, strings.TrimSpace(row), len(cells), len(versions)+1)
			continue
		}
		var names []string
		for _, m := range backticked.FindAllStringSubmatch(cells[0], -1) {
			names = append(names, m[1])
		}
		for i, v := range versions {
			cell := strings.TrimSpace(cells[i+1])
			m := figures.FindStringSubmatch(cell)
			switch {
			case m == nil:
				t.Errorf("%s: %s in %s: %q is not one of pass N/M, pass, not applicable, (none)", compatibilityDoc, cells[0], v, cell)
			case m[1] != "" && len(names) != 1:
				t.Errorf("%s: row %s gives figures for several scenarios: give each its row", compatibilityDoc, cells[0])
			case m[1] != "":
				checks, ok := results[v][names[0]]
				passed := 0
				for _, c := range checks {
					if !c.failed() {
						passed++
					}
				}
				if got := fmt.Sprintf("pass %d/%d", passed, len(checks)); !ok || !strings.HasPrefix(cell, got) {
					t.Errorf("%s says %s scored %q in conformance %s; the suite just said %q (of %d checks)", compatibilityDoc, names[0], cell, v, got, len(checks))
				}
				checked++
			case cell == "(none)":
				for _, n := range names {
					if _, ok := results[v][n]; ok && !strings.HasPrefix(n, "-") {
						t.Errorf("%s says conformance %s has no scenario %s; it has", compatibilityDoc, v, n)
					}
				}
			}
		}
	}
	if checked == 0 {
		t.Errorf("%s: no figure of the conformance table was checked", compatibilityDoc)
	}
}
