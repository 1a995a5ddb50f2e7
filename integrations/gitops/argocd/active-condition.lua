-- Argo CD health of a Kueue object by its Active condition: ClusterQueue,
-- LocalQueue, AdmissionCheck and MultiKueueCluster all report whether they
-- work through it. Healthy when True; Degraded when False (the condition's
-- reason and message say why, e.g. a MultiKueueCluster that cannot reach its
-- worker); Progressing while Kueue has not looked at this generation yet, or
-- the object is being deleted. Written for Lua 5.1 (Argo CD's gopher-lua).
local hs = {}
if obj.metadata ~= nil and obj.metadata.deletionTimestamp ~= nil then
  hs.status = "Progressing"
  hs.message = "being deleted"
  return hs
end
if obj.status ~= nil and obj.status.conditions ~= nil then
  for _, condition in ipairs(obj.status.conditions) do
    if condition.type == "Active" then
      local generation = obj.metadata ~= nil and obj.metadata.generation or nil
      if generation ~= nil and condition.observedGeneration ~= nil and condition.observedGeneration < generation then
        hs.status = "Progressing"
        hs.message = "Kueue has not yet seen generation " .. tostring(generation)
        return hs
      end
      local message = condition.reason or ""
      if condition.message ~= nil and condition.message ~= "" then
        message = message .. ": " .. condition.message
      end
      if condition.status == "True" then
        hs.status = "Healthy"
      elseif condition.status == "False" then
        hs.status = "Degraded"
      else
        hs.status = "Progressing"
      end
      hs.message = message
      return hs
    end
  end
end
hs.status = "Progressing"
hs.message = "waiting for Kueue to set the Active condition"
return hs
