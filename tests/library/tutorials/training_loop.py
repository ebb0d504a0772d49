# A small model trained with an optimizer: zero_grad, backward, step.
import torch

torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(3, 8), torch.nn.ReLU(), torch.nn.Linear(8, 1))
print(model)
x = torch.randn(32, 3)
target = x.sum(dim=1, keepdim=True)
for name, optimizer in [("SGD", torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)),
                        ("Adam", torch.optim.Adam(model.parameters(), lr=0.01))]:
    for step in range(30):
        optimizer.zero_grad()
        loss = torch.nn.functional.mse_loss(model(x), target)
        loss.backward()
        optimizer.step()
    print(name, f"{loss.item():.4f}")
for name, parameter in model.named_parameters():
    print(name, tuple(parameter.shape), parameter.requires_grad)
model[0].weight.requires_grad_(False)
model.zero_grad()
print(model[0].weight.grad, model[2].bias.grad)
