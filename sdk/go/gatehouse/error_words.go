package gatehouse

import (
	"embed"
	"encoding/json"
	"path"
	"regexp"
	"strings"
	"sync"
)

// The words for an error reason are the catalog the hosted pages show
// (src/i18n/catalogs/reasons), so an application's own form and Gatehouse's pages say the same
// thing in the same language, as the TypeScript SDK's errorMessage does. words/ is a copy that
// scripts/generate-sdks.mjs writes and test/sdks/sdk-words.test.ts holds equal to the source.
// The catalog test keeps every reason's words free of ICU arguments, so they are shown as written.

//go:embed words/*.json
var wordFiles embed.FS

const fallbackLanguage = "en"

// The shape of a well-formed BCP 47 tag (a language subtag, then subtags of letters and digits):
// anything else, such as a POSIX "fr_CA.UTF-8", reads English, as it does in the TypeScript SDK.
var languageTag = regexp.MustCompile(`^(?:[A-Za-z]{2,3}|[A-Za-z]{5,8})(?:-[A-Za-z0-9]{1,8})*$`)

var (
	catalogsOnce sync.Once
	catalogs     map[string]map[string]string
)

// wordCatalogs reads every shipped language's words once, on first use. The files are built
// into the package, so a failure here is a broken build, not a runtime condition.
func wordCatalogs() map[string]map[string]string {
	catalogsOnce.Do(func() {
		entries, err := wordFiles.ReadDir("words")
		if err != nil {
			panic("gatehouse: embedded words: " + err.Error())
		}
		catalogs = make(map[string]map[string]string, len(entries))
		for _, entry := range entries {
			data, err := wordFiles.ReadFile(path.Join("words", entry.Name()))
			if err != nil {
				panic("gatehouse: embedded words: " + err.Error())
			}
			var words map[string]string
			if err := json.Unmarshal(data, &words); err != nil {
				panic("gatehouse: embedded words " + entry.Name() + ": " + err.Error())
			}
			catalogs[strings.TrimSuffix(entry.Name(), ".json")] = words
		}
	})
	return catalogs
}

// shippedLanguage is the language of catalogs a BCP 47 tag asks for ("fr-CA" is "fr"), or English.
func shippedLanguage(tag string, catalogs map[string]map[string]string) string {
	tag = strings.TrimSpace(tag)
	if len(tag) > 35 || !languageTag.MatchString(tag) {
		return fallbackLanguage
	}
	language := strings.ToLower(strings.SplitN(tag, "-", 2)[0])
	if _, ok := catalogs[language]; ok {
		return language
	}
	return fallbackLanguage
}

// wordsFor looks a reason up in a language, then in English.
func wordsFor(catalogs map[string]map[string]string, reason Reason, language string) (string, bool) {
	key := "reason." + string(reason)
	if words, ok := catalogs[shippedLanguage(language, catalogs)][key]; ok {
		return words, true
	}
	words, ok := catalogs[fallbackLanguage][key]
	return words, ok
}

// ErrorMessage returns what an error from a Gatehouse call means to the person using the
// application, in language, a BCP 47 tag: "fr-CA" reads French, and a language Gatehouse does
// not ship reads English, as does a reason the language has no words for. False for an error
// without a Gatehouse reason (a network failure, a proxy's page) and for a reason newer than
// this SDK's catalog: branch on ReasonOf, show these words.
func ErrorMessage(err error, language string) (string, bool) {
	reason := ReasonOf(err)
	if reason == "" {
		return "", false
	}
	return wordsFor(wordCatalogs(), reason, language)
}
