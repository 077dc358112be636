package stats

import (
	"math"
	"math/rand/v2"
	"testing"
)

// approxSkill reports whether got is within tol of want in both fields.
func approxSkill(got, want Skill, tol float64) bool {
	return math.Abs(got.Mu-want.Mu) <= tol && math.Abs(got.Sigma-want.Sigma) <= tol
}

// The 2-player case by hand, defaults (mu 25, sigma 25/3, beta 25/6, no
// tau): sigma^2 = 69.4444, beta^2 = 17.3611, c = sqrt(2*(69.4444+17.3611))
// = 13.17616. Both exp(mu/c) are equal, so the winner's only term (q =
// itself, sum over both players) has t = 1/2: omega = (1 - 1/2) *
// sigma^2/c = 2.635231, delta = 1/2*1/2 * sigma^2/c^2 = 0.1, gamma =
// sigma/c = 0.632456. Winner mu = 25 + 2.635231 = 27.635231, sigma =
// 8.333333 * sqrt(1 - 0.1*0.632456) = 8.065506. The loser has the terms
// q = winner (t = 1/2: omega -= 1/2, delta += 1/4) and q = itself (t = 1:
// nothing), so it mirrors the winner. These agree with openskill.py's own
// expected values below.
func TestPlackettLuceByHand(t *testing.T) {
	got := PlackettLuce([]Skill{DefaultSkill(), DefaultSkill()}, nil, DefaultParams())
	sigma2, beta2 := 625.0/9, 625.0/36
	c := math.Sqrt(2 * (sigma2 + beta2))
	dmu := 0.5 * sigma2 / c
	sigma := math.Sqrt(sigma2) * math.Sqrt(1-0.25*sigma2/(c*c)*math.Sqrt(sigma2)/c)
	want := []Skill{{25 + dmu, sigma}, {25 - dmu, sigma}}
	for i := range want {
		if !approxSkill(got[i], want[i], 1e-12) {
			t.Errorf("player %d: %+v, want %+v", i, got[i], want[i])
		}
	}
	if !approxSkill(want[0], Skill{27.635231, 8.065506}, 1e-6) {
		t.Errorf("hand computation %+v drifted from the worked numbers", want[0])
	}
}

// Expected values from openskill.py's test suite,
// tests/models/test_plackett_luce.py at commit
// d41c9636d300477e4f1d9f66e3c4decbd855ff8a
// (github.com/vivekjoshy/openskill.py): default ratings and parameters,
// teams listed in finishing order, no tau.
func TestPlackettLuceOpenSkillFFA(t *testing.T) {
	d := DefaultSkill()
	cases := []struct {
		name string
		want []Skill
	}{
		{"2P FFA", []Skill{
			{27.63523138347365, 8.065506316323548},
			{22.36476861652635, 8.065506316323548},
		}},
		{"3P FFA", []Skill{
			{27.868876552746237, 8.204837030780652},
			{25.717219138186557, 8.057829747583874},
			{21.413904309067206, 8.057829747583874},
		}},
		{"4P FFA", []Skill{
			{27.795084971874736, 8.263160757613477},
			{26.552824984374855, 8.179213704945203},
			{24.68943500312503, 8.083731307186588},
			{20.96265504062538, 8.083731307186588},
		}},
		{"5P FFA", []Skill{
			{27.666666666666668, 8.290556877154474},
			{26.833333333333332, 8.240145629781066},
			{25.72222222222222, 8.179996679645559},
			{24.055555555555557, 8.111796013701358},
			{20.72222222222222, 8.111796013701358},
		}},
	}
	for _, tc := range cases {
		players := make([]Skill, len(tc.want))
		for i := range players {
			players[i] = d
		}
		got := PlackettLuce(players, nil, DefaultParams())
		for i := range tc.want {
			if !approxSkill(got[i], tc.want[i], 1e-9) {
				t.Errorf("%s: player %d: %+v, want %+v", tc.name, i, got[i], tc.want[i])
			}
		}
	}

	// Same file, "3 Different Sized Teams": teams of 3, 1 and 2 default
	// players, in that finishing order.
	teams := [][]Skill{{d, d, d}, {d}, {d, d}}
	want := []Skill{
		{25.939870821784513, 8.247641552260456},
		{27.21366020491262, 8.274321317985242},
		{21.84646897330287, 8.213058173195341},
	}
	for i, team := range plackettLuceTeams(teams, nil, DefaultParams()) {
		for j, s := range team {
			if !approxSkill(s, want[i], 1e-9) {
				t.Errorf("different sized teams: team %d player %d: %+v, want %+v", i, j, s, want[i])
			}
		}
	}
}

// Expected values from openskill.py's generated test data,
// tests/models/data/plackettluce.json at commit
// 061f71f61e20313435b02c14abce215bcfc054ae, produced by the
// plackett_luce.py of that commit with PlackettLuce(mu, sigma) for the mu
// and sigma below and its other defaults: beta 25/6, kappa 0.0001 and
// tau 25/300. Each case has teams of one, two (and three) such players;
// all players of a team end equal.
func TestPlackettLuceOpenSkillGenerated(t *testing.T) {
	r := Skill{Mu: 31.321989232514305, Sigma: 11.379964801443018}
	p := Params{Beta: 25.0 / 6, Kappa: 0.0001, Tau: 25.0 / 300}
	limit := p
	limit.LimitSigma = true
	cases := []struct {
		name  string
		sizes []int
		ranks []int
		p     Params
		want  []Skill // per team
	}{
		{"normal", []int{1, 2}, nil, p, []Skill{
			{36.48967347401391, 11.237778601372977},
			{26.154304991014694, 11.17822477763209},
		}},
		{"ranks", []int{1, 2}, []int{2, 1}, p, []Skill{
			{30.19454401757094, 11.237778601372977},
			{32.44943444745767, 11.17822477763209},
		}},
		{"limit_sigma", []int{1, 2, 3}, []int{2, 1, 3}, limit, []Skill{
			{35.008962716922355, 11.322612945836939},
			{34.774820565754936, 11.291328826858104},
			{24.182184414865624, 11.192736898569162},
		}},
		{"ties", []int{1, 2, 3}, []int{1, 2, 1}, p, []Skill{
			{33.21874815457553, 11.354896725884002},
			{30.27713112192334, 11.291328826858104},
			{30.470088421044046, 11.249240904583088},
		}},
	}
	for _, tc := range cases {
		teams := make([][]Skill, len(tc.sizes))
		for i, n := range tc.sizes {
			for range n {
				teams[i] = append(teams[i], r)
			}
		}
		for i, team := range plackettLuceTeams(teams, tc.ranks, tc.p) {
			for j, s := range team {
				if !approxSkill(s, tc.want[i], 1e-9) {
					t.Errorf("%s: team %d player %d: %+v, want %+v", tc.name, i, j, s, tc.want[i])
				}
			}
		}
	}
}

func TestPlackettLuceProperties(t *testing.T) {
	d := DefaultSkill()
	p := DefaultParams()
	players := []Skill{{30, 5}, {25, 8}, {20, 3}, {27, 6}}
	ranks := []int{3, 1, 4, 2}
	before := append([]Skill(nil), players...)
	got := PlackettLuce(players, ranks, p)
	for i := range players {
		if players[i] != before[i] {
			t.Fatalf("input modified: %v", players)
		}
		if got[i].Sigma >= players[i].Sigma {
			t.Errorf("player %d: sigma did not shrink: %+v -> %+v", i, players[i], got[i])
		}
	}
	if !(got[1].Mu > players[1].Mu) {
		t.Errorf("winner's mu did not rise: %+v -> %+v", players[1], got[1])
	}
	if !(got[2].Mu < players[2].Mu) {
		t.Errorf("last player's mu did not fall: %+v -> %+v", players[2], got[2])
	}
	// Mu moves in the direction of the surprise: the favourite finishing
	// third loses mu.
	if !(got[0].Mu < players[0].Mu) {
		t.Errorf("favourite placed third kept mu: %+v -> %+v", players[0], got[0])
	}

	// Listing order does not matter, only ranks do.
	perm := []int{2, 0, 3, 1}
	pp, pr := make([]Skill, 4), make([]int, 4)
	for i, j := range perm {
		pp[j], pr[j] = players[i], ranks[i]
	}
	gotPerm := PlackettLuce(pp, pr, p)
	for i, j := range perm {
		if !approxSkill(gotPerm[j], got[i], 1e-12) {
			t.Errorf("permuted: player %d: %+v, want %+v", i, gotPerm[j], got[i])
		}
	}
	// Only the order of ranks matters, not their values; nil ranks are the
	// listing order.
	same := []struct {
		name  string
		a, b  []int
		skill []Skill
	}{
		{"rank values", []int{3, 1, 4, 2}, []int{30, 10, 40, 20}, players},
		{"tied rank values", []int{1, 2, 2}, []int{-5, 7, 7}, players[:3]},
		{"nil ranks", nil, []int{0, 1, 2, 3}, players},
	}
	for _, tc := range same {
		x, y := PlackettLuce(tc.skill, tc.a, p), PlackettLuce(tc.skill, tc.b, p)
		for i := range x {
			if x[i] != y[i] {
				t.Errorf("%s: player %d: %+v vs %+v", tc.name, i, x[i], y[i])
			}
		}
	}

	// Equal players who tie keep their mu (and lose some sigma).
	for _, k := range []int{2, 3, 5} {
		eq := make([]Skill, k)
		for i := range eq {
			eq[i] = d
		}
		tie := PlackettLuce(eq, make([]int, k), p)
		for i, s := range tie {
			if math.Abs(s.Mu-d.Mu) > 1e-12 || s.Sigma >= d.Sigma {
				t.Errorf("%d-way tie: player %d: %+v", k, i, s)
			}
		}
	}
	// A tie between unequal players moves them together.
	tie := PlackettLuce([]Skill{{30, 8}, {20, 8}}, []int{1, 1}, p)
	if !(tie[0].Mu < 30 && tie[1].Mu > 20) {
		t.Errorf("tie between unequal players: %+v", tie)
	}

	// Tau widens sigma before the update.
	withTau := p
	withTau.Tau = 1
	a := PlackettLuce([]Skill{d, d}, nil, p)
	b := PlackettLuce([]Skill{d, d}, nil, withTau)
	if !(b[0].Sigma > a[0].Sigma && b[0].Mu > a[0].Mu) {
		t.Errorf("tau: %+v vs %+v", b, a)
	}
	// LimitSigma keeps a certain player's sigma from growing with tau.
	withTau.LimitSigma = true
	sure := PlackettLuce([]Skill{{40, 0.5}, {-20, 0.5}}, nil, withTau)
	if sure[0].Sigma > 0.5 || sure[1].Sigma > 0.5 {
		t.Errorf("limit sigma: %+v", sure)
	}

	// Huge mus do not overflow.
	big := PlackettLuce([]Skill{{1e5, 8}, {1e5 - 1, 8}, {-1e5, 8}}, nil, p)
	for i, s := range big {
		if math.IsNaN(s.Mu) || math.IsNaN(s.Sigma) || math.IsInf(s.Mu, 0) {
			t.Errorf("big: player %d: %+v", i, s)
		}
	}
	// One player: unchanged.
	if one := PlackettLuce([]Skill{d}, nil, p); one[0] != d {
		t.Errorf("one player: %+v", one)
	}
}

func TestSkillOrdinal(t *testing.T) {
	cases := []struct {
		s    Skill
		want float64
	}{
		{DefaultSkill(), 0},
		{Skill{30, 2}, 24},
		{Skill{27.63523138347365, 8.065506316323548}, 27.63523138347365 - 3*8.065506316323548},
	}
	for _, tc := range cases {
		if got := tc.s.Ordinal(); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("%+v.Ordinal() = %v, want %v", tc.s, got, tc.want)
		}
	}
}

func TestPlackettLuceRanksLengthPanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("no panic")
		}
	}()
	PlackettLuce([]Skill{DefaultSkill(), DefaultSkill()}, []int{1}, DefaultParams())
}

// The k-seat ratings of a tournament are Weng-Lin updates game by game,
// not a fit, so nothing can fail to converge; this checks that a realistic
// 4-seat round robin of 30 bots, with one bot that always finishes first
// and one that always finishes last, and shared places, keeps every
// skill finite with a positive sigma, and ranks the two outliers at the
// ends by ordinal.
func TestPlackettLuceTournamentLedger(t *testing.T) {
	const n, seats, rounds = 30, 4, 60
	rng := rand.New(rand.NewPCG(3, 4))
	strength := make([]float64, n) // Elo-like: a Gumbel race decides places
	for i := range strength {
		strength[i] = 1200 * (0.5 - float64(i)/float64(n-1))
	}
	strength[0], strength[n-1] = 1e9, -1e9
	skills := make([]Skill, n)
	for i := range skills {
		skills[i] = DefaultSkill()
	}
	for range rounds {
		order := rng.Perm(n)
		for k := 0; k+seats <= n; k += seats {
			table := order[k : k+seats]
			perf := make([]float64, seats)
			for s, b := range table {
				perf[s] = strength[b]/400*math.Ln10 - math.Log(-math.Log(rng.Float64()))
			}
			ranks := make([]int, seats)
			for s := range table {
				ranks[s] = 1
				for o := range table {
					// Performances within 0.2 of each other share a place.
					if perf[o] > perf[s]+0.2 {
						ranks[s]++
					}
				}
			}
			players := make([]Skill, seats)
			for s, b := range table {
				players[s] = skills[b]
			}
			for s, sk := range PlackettLuce(players, ranks, DefaultParams()) {
				skills[table[s]] = sk
			}
		}
	}
	for i, s := range skills {
		if math.IsNaN(s.Mu) || math.IsInf(s.Mu, 0) || !(s.Sigma > 0) || math.IsInf(s.Sigma, 0) {
			t.Fatalf("bot %d: %+v", i, s)
		}
		if i > 0 && i < n-1 && !(skills[0].Ordinal() > s.Ordinal() && s.Ordinal() > skills[n-1].Ordinal()) {
			t.Errorf("bot %d ordinal %.2f not between the always-first %.2f and the always-last %.2f", i, s.Ordinal(), skills[0].Ordinal(), skills[n-1].Ordinal())
		}
	}
}
