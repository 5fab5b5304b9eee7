// A Gatehouse webhook receiver in Go, standard library only.
// docs/webhooks.md quotes this file; test/docs/webhooks-page.test.ts runs it (harness.go).

package main

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

const tolerance = 5 * time.Minute

// Event is the body of every delivery: catalog version 1 (docs/webhooks.md).
type Event struct {
	Type      string                 `json:"type"`
	Timestamp string                 `json:"timestamp"`
	Data      map[string]interface{} `json:"data"`
}

var errNotVerified = errors.New("webhook not verified")

// verifyWebhook checks one delivery against the endpoint's secret (whsec_…) and returns its
// event. body is the bytes as received.
func verifyWebhook(secret string, body []byte, header http.Header, now time.Time) (*Event, error) {
	id := header.Get("webhook-id")
	timestamp := header.Get("webhook-timestamp")
	signatures := header.Get("webhook-signature")
	seconds, err := strconv.ParseInt(timestamp, 10, 64)
	if id == "" || signatures == "" || err != nil {
		return nil, errNotVerified
	}
	// Older than 5 minutes, or as far ahead: a replayed or forged request.
	sent := time.Unix(seconds, 0)
	if now.Sub(sent) > tolerance || sent.Sub(now) > tolerance {
		return nil, errNotVerified
	}
	key, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(secret, "whsec_"))
	if err != nil {
		return nil, err
	}
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte(id + "." + timestamp + "."))
	mac.Write(body)
	expected := []byte(base64.StdEncoding.EncodeToString(mac.Sum(nil)))
	// Space-separated "v1,<base64>" entries: two during a secret rotation; any one will do.
	for _, entry := range strings.Split(signatures, " ") {
		version, signature, _ := strings.Cut(entry, ",")
		if version == "v1" && hmac.Equal([]byte(signature), expected) {
			var event Event
			if err := json.Unmarshal(body, &event); err != nil {
				return nil, err
			}
			return &event, nil
		}
	}
	return nil, errNotVerified
}

// webhookHandler answers 401 for a delivery that does not verify, 204 once handle has taken
// the event, 500 when it fails (Gatehouse retries). Every attempt of an event carries the same
// webhook-id and a delivery can come twice (a retry after a lost answer, a replay), so each id
// is handled once. seen is in memory here; keep the ids where the event's effect is written (a
// unique column, in the same transaction), so that a restart forgets nothing.
func webhookHandler(secret string, handle func(id string, event *Event) error) http.Handler {
	var mu sync.Mutex
	seen := map[string]bool{}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, 1<<20))
		if err != nil {
			http.Error(w, "body too large", http.StatusRequestEntityTooLarge)
			return
		}
		event, err := verifyWebhook(secret, body, r.Header, time.Now())
		if err != nil {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		id := r.Header.Get("webhook-id")
		mu.Lock()
		done := seen[id]
		mu.Unlock()
		if !done { // handled already: answer 2xx, or it is sent again
			// Events may arrive in any order: compare event.Timestamp with what you hold.
			if err := handle(id, event); err != nil {
				w.WriteHeader(http.StatusInternalServerError)
				return
			}
			mu.Lock()
			seen[id] = true
			mu.Unlock()
		}
		w.WriteHeader(http.StatusNoContent)
	})
}
