package gatehouse

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"testing"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// ErrorMessage's choices that a live server cannot show on demand: tags that are not a shipped
// language, a reason one language lacks, errors that are not Gatehouse's. test/sdks/go-verify.test.ts
// runs these with `go test`; test/sdks/go-session.test.ts reads the words of real refusals.

func refusal(t *testing.T, domain, reason string) error {
	st, err := status.New(codes.Unauthenticated, "refused").WithDetails(&errdetails.ErrorInfo{Domain: domain, Reason: reason})
	if err != nil {
		t.Fatal(err)
	}
	return st.Err()
}

// catalog reads a language's words from the files the package embeds.
func catalog(t *testing.T, language string) map[string]string {
	data, err := os.ReadFile("words/" + language + ".json")
	if err != nil {
		t.Fatal(err)
	}
	var words map[string]string
	if err := json.Unmarshal(data, &words); err != nil {
		t.Fatal(err)
	}
	return words
}

func TestErrorMessageReadsTheLanguageOfATag(t *testing.T) {
	err := refusal(t, ErrorDomain, string(ReasonInvalidCredentials))
	const key = "reason.INVALID_CREDENTIALS"
	de, fr, ar, en := catalog(t, "de")[key], catalog(t, "fr")[key], catalog(t, "ar")[key], catalog(t, "en")[key]
	if de == en || fr == en || ar == en {
		t.Fatalf("the catalogs should word %s differently: de=%q fr=%q ar=%q en=%q", key, de, fr, ar, en)
	}
	for tag, want := range map[string]string{
		"de": de, "de-AT": de, "DE": de, " de ": de, "fr-CA": fr, "ar-EG": ar, "en-GB": en,
		// Not shipped, or not a tag: English.
		"pt-BR": en, "ja": en, "": en, "not a tag": en, "fr_CA.UTF-8": en, "dee": en,
	} {
		got, ok := ErrorMessage(err, tag)
		if !ok || got != want {
			t.Errorf("ErrorMessage(%q) = %q, %v; want %q", tag, got, ok, want)
		}
	}
}

func TestErrorMessageFallsBackToEnglishForAReasonALanguageLacks(t *testing.T) {
	catalogs := map[string]map[string]string{
		"en": {"reason.RATE_LIMITED": "Too many tries.", "reason.WEAK_PASSWORD": "Longer."},
		"de": {"reason.WEAK_PASSWORD": "Länger."},
	}
	for _, c := range []struct {
		reason   Reason
		language string
		want     string
		ok       bool
	}{
		{ReasonWeakPassword, "de-CH", "Länger.", true},
		{ReasonRateLimited, "de-CH", "Too many tries.", true},
		{ReasonUserDisabled, "de-CH", "", false},
	} {
		got, ok := wordsFor(catalogs, c.reason, c.language)
		if got != c.want || ok != c.ok {
			t.Errorf("wordsFor(%s, %q) = %q, %v; want %q, %v", c.reason, c.language, got, ok, c.want, c.ok)
		}
	}
}

func TestErrorMessageHasNoWordsForAnErrorThatIsNotGatehouses(t *testing.T) {
	for name, err := range map[string]error{
		"nil":                 nil,
		"a plain error":       errors.New("connection refused"),
		"a wrapped error":     fmt.Errorf("login: %w", errors.New("EOF")),
		"a status, no detail": status.Error(codes.Unavailable, "bad gateway"),
		"another domain":      refusal(t, "example.com", string(ReasonInvalidCredentials)),
		"a newer reason":      refusal(t, ErrorDomain, "A_REASON_FROM_THE_FUTURE"),
	} {
		if got, ok := ErrorMessage(err, "de"); ok || got != "" {
			t.Errorf("%s: ErrorMessage = %q, %v; want \"\", false", name, got, ok)
		}
	}
}
