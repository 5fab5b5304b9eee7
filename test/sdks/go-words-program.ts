// A Go program of the tests' own (built by go-session.test.ts beside the SDK in its scratch
// GOPATH, never in the checkout): it provokes two real refusals, a wrong password at Login and a
// common one at Signup, and prints gatehouse.ErrorMessage for each in every tag of
// GATEHOUSE_TAGS (a JSON list), one `<what> reason=<reason> {tag: words}` line per refusal.
export const WORDS_PROGRAM = `package main

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"os"
	"time"

	"google.golang.org/grpc"

	"gatehouse.dev/sdk/go/gatehouse"
	authv1 "gatehouse.dev/sdk/go/gen/gatehouse/auth/v1"
)

func main() {
	var tags []string
	if err := json.Unmarshal([]byte(os.Getenv("GATEHOUSE_TAGS")), &tags); err != nil {
		log.Fatal(err)
	}
	conn, err := grpc.Dial(os.Getenv("GATEHOUSE_ADDRESS"), grpc.WithInsecure())
	if err != nil {
		log.Fatal(err)
	}
	defer conn.Close()
	auth := gatehouse.NewAuthClient(conn, os.Getenv("GATEHOUSE_API_KEY"))
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()

	show := func(what string, err error) {
		words := map[string]string{}
		for _, tag := range tags {
			if w, ok := gatehouse.ErrorMessage(err, tag); ok {
				words[tag] = w
			}
		}
		out, _ := json.Marshal(words)
		fmt.Printf("%s reason=%s %s\\n", what, gatehouse.ReasonOf(err), out)
	}
	_, err = auth.Login(ctx, &authv1.LoginRequest{Email: os.Getenv("GATEHOUSE_EMAIL"), Password: "not the password"})
	show("wrong_password", err)
	_, err = auth.Signup(ctx, &authv1.SignupRequest{Email: "common-" + os.Getenv("GATEHOUSE_EMAIL"), Password: "Password123"})
	show("common_password", err)
}
`;
