package stoprule_test

import (
	"fmt"

	"github.com/arena-dev/arena/arena/stoprule"
)

// A final plays until its top 2 are decided at 95 %: the skills of four
// bots (Weng-Lin mu and sigma) after some games, and after more.
func Example() {
	rule, err := stoprule.Parse("separated:2@95%")
	if err != nil {
		fmt.Println(err)
		return
	}
	early := []stoprule.Estimate{{"alpha", 31, 2.5}, {"beta", 27, 2.4}, {"gamma", 24, 2.6}, {"delta", 18, 3}}
	later := []stoprule.Estimate{{"alpha", 32, 1.1}, {"beta", 27, 1.0}, {"gamma", 23.5, 1.1}, {"delta", 18, 1.4}}
	fmt.Println(rule)
	fmt.Println(rule.Decide(early))
	fmt.Println(rule.Decide(later))
	_, err = stoprule.Parse("separated:top3")
	fmt.Println(err)
	// Output:
	// separated:2@0.95
	// the top 2 are not separated at 95 % (doubt 0.332, most from beta above gamma: 80.2 %)
	// the top 2 are separated at 95 % (order: alpha, beta; doubt 0.00966)
	// "separated:top3" is not a stop rule: K "top3" is not a whole number from 1; want separated:K or separated:K@C (K a whole number from 1; C a confidence above 0.5 and below 1, as 0.95 or 95%; without it 0.95)
}
