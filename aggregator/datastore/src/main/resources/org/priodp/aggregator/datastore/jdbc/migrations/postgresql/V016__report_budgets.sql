-- Version 16: the privacy budgets of the reports counted in each batch bucket
-- (draft-ietf-ppm-dap-attribution-00, sections 3 and 5), written in the task transaction that
-- adds the reports' output shares. batch_aggregations.min_privacy_budget: the least
-- privacy_budget report extension (micro-epsilons) of the counted reports that carried one, NULL
-- if none did; budget_missing: 1 if some counted report carried none, 0 if every one did, NULL
-- for buckets written before this version (read as 1: their budgets are not known).

ALTER TABLE batch_aggregations ADD COLUMN min_privacy_budget BIGINT;
ALTER TABLE batch_aggregations ADD COLUMN budget_missing INTEGER;
