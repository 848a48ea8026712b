import type { DocumentPrompt } from '../types.ts';

/** The prompt for ARCHITECTURE.md: the system's shape, traced to the FR and NFR IDs. */
export const ARCHITECTURE: DocumentPrompt<'architecture'> = {
  kind: 'architecture',
  version: 2,
  reader:
    'The engineers who build and run the system, and a reviewer checking that the design meets ' +
    'the requirements. They come to it to find where a behaviour lives, why a technology was ' +
    'chosen, and what must not be broken.',
  purpose:
    'Describe the system that meets the product requirements: its parts and their boundaries, ' +
    'the technologies and why they won, how data moves in the main journeys, and how the system ' +
    'is secured, deployed and observed, with every part traced to the FR and NFR IDs it serves, ' +
    'so that the design documents and the implementation plan build on one agreed shape.',
  sections: {
    Context:
      'The system in its surroundings, as one mermaid `flowchart` code block with the system as ' +
      'a single node and every party it talks to: kinds of users, client applications, ' +
      'third-party services, upstream APIs, identity and payment providers, app stores, AI ' +
      'clients. Then one line per party saying what passes between them and over which protocol. ' +
      'Close with the architectural style in one sentence (for example, a single deployable ' +
      'service with a relational database and a background worker) and why it fits the scale in ' +
      'the requirements.',
    Components:
      'A mermaid `flowchart` code block of the components inside the system and the calls ' +
      'between them, each edge labelled with the protocol or the kind of message. Then a table ' +
      'with columns Component, Responsibility, Technology, Requirements: one row per node of the ' +
      'diagram, its responsibility in one sentence, and the FR and NFR IDs it serves (criteria as ' +
      'FR-n.m where a component serves only some of an FR). Every FR appears in at least one ' +
      'row. Keep to what the first release needs, typically four to ' +
      'eight components; split a service out only when a named NFR demands it.',
    Integrations:
      "One row per external service of the questionnaire's integrations (and any the components " +
      'above call), as a table with columns Service, Used for, Auth, Quotas and rate limits, Cost, ' +
      'Failure mode, Fallback: how the system authenticates to it (API key kept where, OAuth ' +
      'scopes), the quotas and rate limits that bind at the expected load, the cost at launch ' +
      'scale (a published price, or an assumption A-n when the brief records one), what the user ' +
      'sees when it is down or slow, and the fallback (retry with backoff, a queue, a second ' +
      'provider, degrade to a stated behaviour). Cite the FRs each service serves. When the ' +
      'product uses no external service, one sentence saying so.',
    'Technology choices':
      'A table with columns Concern, Choice, Alternatives rejected, Why, covering language and ' +
      'runtime (with version), framework, data store, authentication, hosting, background work, ' +
      'and whatever else the requirements call for (search, file storage, email, push ' +
      "notifications, payments, the MCP SDK). Use exactly the technologies the questionnaire's " +
      'tech stack names and decide only what it leaves open. For each row, name one or two ' +
      'realistic alternatives and the concrete reason each lost for this project: cost at the ' +
      'expected scale, fit with the rest of the stack, a named NFR, a missing capability. No ' +
      'general praise ("robust", "modern", "popular").',
    'Data flow':
      "The three or four journeys that matter most (the core feature's main action, signing in " +
      'or connecting, and the heaviest or riskiest operation), each under a ### heading as a ' +
      'mermaid `sequenceDiagram` code block followed by a few lines naming what is read and ' +
      'written, what is synchronous and what is queued, the FR IDs the journey implements, where ' +
      'it can fail and what the user then sees.',
    Security:
      'A table with columns Threat, Control, Requirements, covering authentication and sessions ' +
      '(mechanism, token lifetimes), authorisation (who may do what, enforced where), input ' +
      'validation, secrets (where kept, how rotated), data protection in transit and at rest, ' +
      'abuse (rate limits with numbers), dependencies and supply chain, and the threats ' +
      'particular to the project type: for a web application cross-site scripting and request ' +
      'forgery; for a mobile app tokens kept in the Keychain or Keystore and a client that can ' +
      'be reverse-engineered; for an MCP server prompt injection through tool results, ' +
      'over-broad tool permissions, token passthrough and DNS rebinding against a local HTTP ' +
      'server. Cite the NFR IDs each control satisfies.',
    Deployment:
      'The environments (development and production at least; staging when the NFRs warrant it); ' +
      'where each component runs (the named platform or host, region, instance sizes); how a ' +
      'change reaches production (the CI steps and what gates them); database migrations and ' +
      'backups (frequency, retention, a restore that is tested); the limits of this first setup ' +
      'in numbers and what would be changed first when they are reached; and the monthly running ' +
      'cost at launch scale as a small table. For a mobile app add the store release path ' +
      '(TestFlight and Play Console tracks, review times, forced update policy); for an MCP ' +
      'server, how it is distributed (a package registry, a container image or a hosted ' +
      'endpoint).',
    Observability:
      'What is logged (structured fields, a request or session ID across components) and what is ' +
      'never logged (secrets, tokens, personal data); the metrics that matter and the traces ' +
      'across components; where logs and metrics go and how long they are kept; and a table with ' +
      'columns Objective, Measure, Target, Alert when, Requirements that turns the NFRs into ' +
      'service level objectives with alert thresholds and says who is alerted.',
  },
  rules: [
    'Cite FR, FR-n.m and NFR IDs from the product requirements (and A-n, R-n from the brief ' +
      'where a choice rests on them), written in full and never as a range; introduce no IDs of ' +
      'your own. Every FR is cited by the component that implements it: this is checked.',
    'Design for the scale the brief and the requirements state, not an imagined one: prefer ' +
      'fewer moving parts, and name the point (users, requests per second, data size) at which a ' +
      'part would have to change.',
    'Mermaid blocks must render: simple alphanumeric node IDs, labels in double quotes when they ' +
      'contain spaces or punctuation, no styling or HTML.',
    "Fit the architecture to the project type: a web application's browser client and API; a " +
      "mobile app's client, its backend and push; an MCP server's transport, tool handlers and " +
      'upstream clients.',
    'About 1,500 to 2,500 words, plus the diagrams.',
  ],
  maxOutputTokens: 7_000,
};
