// Runs verify.go for test/docs/webhooks-page.test.ts: cases in, outcomes out, as JSON.
//
//	go run verify.go harness.go < cases.json
//
// stdin and stdout as harness.py's.

package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"time"
)

type request struct {
	Name    string            `json:"name"`
	Secret  string            `json:"secret"`
	Body    string            `json:"body"`
	Headers map[string]string `json:"headers"`
}

type cases struct {
	Verify []request `json:"verify"`
	Serve  struct {
		Secret   string    `json:"secret"`
		FailOnce []string  `json:"fail_once"`
		Requests []request `json:"requests"`
	} `json:"serve"`
}

type verified struct {
	Name  string `json:"name"`
	OK    bool   `json:"ok"`
	Type  string `json:"type,omitempty"`
	Error string `json:"error,omitempty"`
}

type status struct {
	Name   string `json:"name"`
	Status int    `json:"status"`
}

func headerOf(headers map[string]string) http.Header {
	h := http.Header{}
	for name, value := range headers {
		h.Set(name, value)
	}
	return h
}

func main() {
	var in cases
	if err := json.NewDecoder(os.Stdin).Decode(&in); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	results := []verified{}
	for _, c := range in.Verify {
		event, err := verifyWebhook(c.Secret, []byte(c.Body), headerOf(c.Headers), time.Now())
		if err != nil {
			results = append(results, verified{Name: c.Name, Error: err.Error()})
		} else {
			results = append(results, verified{Name: c.Name, OK: true, Type: event.Type})
		}
	}

	var mu sync.Mutex
	handled := []string{}
	failing := map[string]bool{}
	for _, id := range in.Serve.FailOnce {
		failing[id] = true
	}
	server := httptest.NewServer(webhookHandler(in.Serve.Secret, func(id string, event *Event) error {
		mu.Lock()
		defer mu.Unlock()
		if failing[id] {
			delete(failing, id)
			return fmt.Errorf("failing once on purpose")
		}
		handled = append(handled, id)
		return nil
	}))
	defer server.Close()
	statuses := []status{}
	for _, r := range in.Serve.Requests {
		req, _ := http.NewRequest(http.MethodPost, server.URL+"/webhooks/gatehouse", bytes.NewReader([]byte(r.Body)))
		req.Header = headerOf(r.Headers)
		req.Header.Set("content-type", "application/json")
		answer, err := http.DefaultClient.Do(req)
		if err != nil {
			fmt.Fprintln(os.Stderr, strings.TrimSpace(err.Error()))
			os.Exit(1)
		}
		answer.Body.Close()
		statuses = append(statuses, status{Name: r.Name, Status: answer.StatusCode})
	}
	out := map[string]interface{}{"verify": results, "serve": map[string]interface{}{"statuses": statuses, "handled": handled}}
	if err := json.NewEncoder(os.Stdout).Encode(out); err != nil {
		os.Exit(1)
	}
}
